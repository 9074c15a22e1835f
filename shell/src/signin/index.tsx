import { createRoot } from 'react-dom/client';
import { cellwiseTokens } from 'shared-ui/theme';
import { SignedOutApp } from './SignedOutApp';
import './signin.css';

/**
 * The signed-out pages' own entry (auth.html, served for /auth/*): plain React, no antd, router or
 * federation runtime, so the login page costs a fraction of the console. After sign-in it hands over to
 * the console by a full page load (api.ts).
 */
const root = document.documentElement.style;
root.setProperty('--cw-primary', cellwiseTokens.colorPrimary);
root.setProperty('--cw-radius', `${cellwiseTokens.borderRadius}px`);
root.setProperty('--cw-font', cellwiseTokens.fontFamily);

const container = document.getElementById('root');
if (!container) throw new Error('auth.html has no #root element');
createRoot(container).render(<SignedOutApp />);
