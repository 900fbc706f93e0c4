/** The shared form controls of spec §2 and the one data table (STYLE.md). */

export { CreatableSelect } from './CreatableSelect.tsx';
export { type DataColumn, DataTable } from './DataTable/DataTable.tsx';
export { IconButton } from './IconButton.tsx';
export { NumericInput } from './NumericInput.tsx';
export { RequiredInput } from './RequiredInput.tsx';
export { ScrollTabs } from './ScrollTabs/ScrollTabs.tsx';
export { SearchFilter } from './SearchFilter.tsx';
export { MultiSelect, Select } from './Select.tsx';
export type { SelectOption } from './search.ts';
export { TimePicker } from './TimePicker.tsx';
export { ButtonGroup, type ButtonGroupItem, Checkbox, Switch } from './Toggles.tsx';
