import { render } from 'preact';
// The shared styles first, so each view's own stylesheet (imported by the view) can build on them.
import './styles/base.css';
import './styles/layout.css';
import './styles/controls.css';
import './styles/feedback.css';
import './styles/surfaces.css';
import { App } from './app.js';

render(<App />, document.getElementById('app')!);
