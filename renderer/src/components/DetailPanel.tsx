/** The side panel moved to `renderer/src/panel/`; kept so older imports still resolve. */
export { DetailPanel } from '../panel/DetailPanel.tsx';
