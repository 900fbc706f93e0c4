/** The fleet's custom-field definitions tab (issue 9 item 7). Filled in by the custom fields work. */
export function CustomFieldsTab({ fid }: { fid: number }) {
  return <div data-fid={fid} />;
}
