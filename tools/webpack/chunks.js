// How the shell's build groups modules into chunks: the defaults copied small shared modules into every
// chunk that used them, or made a script of each, which pages paid for in bytes and in start-up tasks.

/**
 * What nearly every antd component needs (the config and theme machinery, style utilities, motion,
 * popups, the icon base), as one chunk of the shell. Left to the defaults, webpack copied each of these
 * small modules into every component's chunk: 40 % of /home's antd bytes were such copies.
 */
const ANTD_FOUNDATION_CHUNK = {
  test: /[\\/]node_modules[\\/](antd[\\/]es[\\/](_util|style|config-provider|locale|theme|grid|tooltip|layout[\\/](Sider|context|style)|menu[\\/]OverrideContext|color-picker[\\/](color|util|components[\\/]ColorPresets)|(calendar|date-picker|time-picker)[\\/]locale|space[\\/](Compact|style[\\/]compact)|form[\\/](context|hooks[\\/]useVariants))|@ant-design[\\/](cssinjs-utils|fast-color|colors|icons[\\/]es[\\/](components|utils))|@rc-component[\\/](util|motion|resize-observer|portal|trigger|overflow|tooltip|color-picker[\\/]es[\\/]color|(pagination|picker)[\\/]es[\\/]locale|form[\\/]es[\\/]FormContext)|clsx|react-is|is-mobile|@babel[\\/]runtime)[\\/.]/,
  name: 'antd-foundation',
  chunks: 'async',
  enforce: true,
  priority: 10,
};

/**
 * Icons that more than one of the shell's chunks draw (the loading spinner, clear and close crosses,
 * arrows), once: left to the defaults each component's chunk carried its own copy, up to six of the
 * same icon on a table page.
 */
const ANTD_SHARED_ICONS_CHUNK = {
  test: /[\\/]node_modules[\\/]@ant-design[\\/](icons[\\/]es[\\/](icons|renderUtils|cssUtils)|icons-svg[\\/]es[\\/]asn)[\\/.]/,
  minChunks: 2,
  name: 'antd-shared-icons',
  chunks: 'async',
  enforce: true,
  priority: 5,
};

/**
 * React, its DOM renderer, scheduler and JSX runtime, the router and the store: every console page
 * needs all of them before its first render, and left to the defaults each was a chunk of its own (one
 * of 3 KB, one of 0.7 KB...). Each chunk is a script tag the shell inserts during its first task, and
 * inserting 27 of them was a third of that task (issue 17: blocking time on a phone). One chunk costs
 * no byte more: no page loads any of them without the others.
 */
const REACT_CORE_CHUNK = {
  test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|zustand)[\\/]/,
  name: 'react-core',
  chunks: 'async',
  enforce: true,
  priority: 20,
};

/** The shell's splitChunks option. */
function hostSplitChunks() {
  return { cacheGroups: { reactCore: REACT_CORE_CHUNK, antdFoundation: ANTD_FOUNDATION_CHUNK, antdSharedIcons: ANTD_SHARED_ICONS_CHUNK } };
}

module.exports = { ANTD_FOUNDATION_CHUNK, ANTD_SHARED_ICONS_CHUNK, REACT_CORE_CHUNK, hostSplitChunks };
