/**
 * The light/dark choice: follows the system (`prefers-color-scheme`) until the person picks one,
 * then `data-theme` on <html> holds it (kept in localStorage: a display preference, nothing secret).
 */
export type Theme = 'light' | 'dark';
const KEY = 'bourse-theme';
const listeners = new Set<(theme: Theme) => void>();

function stored(): Theme | undefined {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The theme in effect now. */
export function currentTheme(): Theme {
  const forced = document.documentElement.dataset.theme;
  if (forced === 'light' || forced === 'dark') return forced;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function setTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
  try {
    localStorage.setItem(KEY, theme);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  for (const listener of listeners) listener(theme);
}

/** Applies a stored choice (call once at start-up) and reports later changes, the system's included. */
export function initTheme(): void {
  const theme = stored();
  if (theme !== undefined) document.documentElement.dataset.theme = theme;
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    for (const listener of listeners) listener(currentTheme());
  });
}

export function onThemeChange(listener: (theme: Theme) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
