import { appPackageBuild } from '../../scripts/tsup-app';

/** The MCP server's package build (scripts/tsup-app.ts). */
export default appPackageBuild();
