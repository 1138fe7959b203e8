declare module 'autocannon' {
  function autocannon(opts: Record<string, unknown>, cb: (err: Error | null, result: any) => void): unknown;
  export default autocannon;
}
