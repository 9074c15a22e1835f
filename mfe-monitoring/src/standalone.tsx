// Async boundary: shared singletons must be negotiated before any of them is evaluated.
void Promise.all([import('./manifest'), import('shared-ui')]).then(([{ default: manifest }, ui]) => ui.mountStandalone(manifest));
