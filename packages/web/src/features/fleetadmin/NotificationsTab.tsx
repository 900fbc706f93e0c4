/** The place for the fleet's notification set-up (issue 9 item 7; the notifications issue fills it). */
export function NotificationsTab({ fid }: { fid: number }) {
  return <div data-fid={fid} />;
}
