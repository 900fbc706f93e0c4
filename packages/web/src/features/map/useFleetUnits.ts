import { useUnits } from '../../lib/fleetData.ts';
import type { MapUnit } from './markers.ts';

/**
 * The current fleet's units: the query every unit screen shares (lib/fleetData.ts), so the map uses
 * their cache; live unit events are patched into it (lib/live.ts).
 */
export const useFleetUnits = (fid: number | null) => useUnits<MapUnit>(fid);
