// What rc-select's Select gets for its option list, at build time (tools/webpack, AntdImportsPlugin): the
// list (with the virtual list under it) is drawn only in an open dropdown, so it loads the first time a
// select opens, not with every page that shows a select. Select reaches it through an optional ref
// (`listRef.current?.onKeyDown`), so keys pressed during that first load are only not yet handled.
import { onDemand } from './onDemand';

export default onDemand(() => import('@rc-component/select/es/OptionList'));
