/**
 * Old Internet Explorer (spec §2 "Old browsers"): IE 10 and older say `MSIE `, IE 11 says only
 * `Trident/` (compatibility view says both). Legacy Edge (`Edge/`) and Chromium Edge (`Edg/`) say neither.
 */
export function isOldInternetExplorer(userAgent: string | undefined): boolean {
  if (!userAgent) return false;
  return userAgent.includes('MSIE ') || userAgent.includes('Trident/');
}
