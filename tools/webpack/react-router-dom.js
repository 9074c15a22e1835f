// What the console shares under the name 'react-router-dom' (see ROUTER_SHARE in index.js): the part of
// react-router it uses. The package itself is shared whole otherwise, and a shared module cannot be
// tree-shaken: 60 KB gz on every page, three quarters of it data routers and server rendering that no
// page uses. Imported from 'react-router' (which react-router-dom re-exports) so that this module is
// not itself taken for the shared one. shell/src/federation/sharing.test.ts fails when code imports a
// name from 'react-router-dom' that is missing here.
// react-router is react-router-dom's own dependency: importing it as installed keeps the two versions one.
// eslint-disable-next-line import-x/no-extraneous-dependencies
export {
  BrowserRouter,
  Link,
  matchPath,
  MemoryRouter,
  Navigate,
  NavLink,
  Outlet,
  Route,
  Routes,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from 'react-router';
