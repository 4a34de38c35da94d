/**
 * The name of the desktop app's icon scheme (`marketdesk-icon://market/123`), shared by main/
 * (registration, CSP) and the renderer (icon URLs) without pulling either side's code in.
 */
export const ICON_SCHEME = 'marketdesk-icon';
