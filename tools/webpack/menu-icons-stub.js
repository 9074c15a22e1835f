// What a remote's src/manifest.tsx gets for '@ant-design/icons' in a production build (createRemoteConfig).
// The console draws every menu icon from navigation.json, where the build writes each icon as an SVG tree
// (navigation.js); the icon elements of the manifest itself are never drawn, and importing the real
// icons put their SVG data in every remote's manifest chunk, loaded with the first page of each remote.
// The standalone development frame, which does draw them, builds with the real package.
function MenuIconDrawnByTheShell() {
  return null;
}

module.exports = new Proxy({ __esModule: true }, { get: (target, name) => (name in target ? target[name] : MenuIconDrawnByTheShell) });
