import { useSession } from '../../lib/session.ts';

/** The current fleet and the user's date and time formats, as the issues screens show times. */
export function useFleetFormats() {
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fid = auth?.fid ?? null;
  const fleet = auth?.fleets.find((f) => f.id === fid);
  return {
    fid,
    tz: fleet?.tz ?? 0,
    miles: fleet?.ms === 1,
    dateFormat: auth?.model.s.dateFormat || 'DD.MM.YYYY',
    timeFormat: auth?.model.s.timeFormat || 'HH:mm',
  };
}
