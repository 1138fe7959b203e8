/** The operator's console (filled in below). */
export function OperatorPage() {
  return <h1>Operator</h1>;
}
