/** Display helpers: numbers stay the API's strings; only times are formatted. */
export function clock(ms: number | string): string {
  const date = new Date(Number(ms));
  return date.toLocaleTimeString([], { hour12: false, hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function dateTime(ms: number | string): string {
  const date = new Date(Number(ms));
  return `${date.toLocaleDateString([], { month: 'short', day: 'numeric' })} ${clock(ms)}`;
}

/** Words for the API's enums: "LIMIT_MAKER" → "Limit maker". */
export function words(value: string): string {
  const text = value.toLowerCase().replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
