/** Spec §2 /admin: the fleet list and "create fleet" (issue 9). Filled in by the admin screen work. */
export default function AdminScreen() {
  return null;
}
