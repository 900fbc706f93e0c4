/** The fleet's service objects tab (issue 9 item 5). Filled in by the objects work. */
export function ObjectsTab({ fid }: { fid: number }) {
  return <div data-fid={fid} />;
}
