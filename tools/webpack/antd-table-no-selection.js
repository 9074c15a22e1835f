// What antd's Table gets for its row-selection hook (./hooks/useSelection) in the browser builds
// (antd-rewrites.js, STAND_IN_IMPORTS). The console's tables select no rows (shared-ui DataTable), and the
// real hook brought the selection column's code, rc-tree's check helpers and a Dropdown to every table
// page. A table given `rowSelection` fails loudly here instead of drawing without its checkboxes.
export const SELECTION_COLUMN = {};
export const SELECTION_ALL = 'SELECT_ALL';
export const SELECTION_INVERT = 'SELECT_INVERT';
export const SELECTION_NONE = 'SELECT_NONE';

const NOTHING_SELECTED = new Set();

/** antd's own answer without `rowSelection`: the columns without the selection column, no key selected. */
const withoutSelectionColumn = (columns) => columns.filter((column) => column !== SELECTION_COLUMN);

export default function useSelection(_config, rowSelection) {
  if (rowSelection) {
    throw new Error(
      "antd Table's rowSelection is left out of the console's builds (tools/webpack/antd-rewrites.js, STAND_IN_IMPORTS): take the rewrite out to select rows",
    );
  }
  return [withoutSelectionColumn, NOTHING_SELECTED];
}
