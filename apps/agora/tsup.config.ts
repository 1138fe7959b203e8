import { appPackageBuild } from '../../scripts/tsup-app';

/** The `agora` CLI's package build (scripts/tsup-app.ts). */
export default appPackageBuild();
