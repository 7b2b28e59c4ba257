/** The dashboard's entry point (bundled by scripts/build-ui.mjs into dist/ui/). */
import { render } from 'preact';
import { App } from './app';
import './styles.css';

const root = document.getElementById('app');
if (root !== null) render(<App />, root);
