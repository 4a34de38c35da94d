// Asset imports handled by Vite (CSS is injected, images become URLs).
declare module '*.css';
declare module '*.svg' {
  const url: string;
  export default url;
}
