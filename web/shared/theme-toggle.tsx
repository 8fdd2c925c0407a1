import { useEffect, useState } from 'preact/hooks';
import { currentTheme, onThemeChange, setTheme, type Theme } from './theme.js';

/** A button switching light ↔ dark; its accessible name says what a press will do. */
export function ThemeToggle() {
  const [theme, setState] = useState<Theme>(currentTheme());
  useEffect(() => onThemeChange(setState), []);
  const next: Theme = theme === 'dark' ? 'light' : 'dark';
  return (
    <button type="button" class="btn btn-ghost theme-toggle" aria-label={`Switch to ${next} theme`} title={`Switch to ${next} theme`} onClick={() => setTheme(next)}>
      {theme === 'dark' ? '☀' : '☾'}
    </button>
  );
}
