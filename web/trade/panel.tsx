import type { ComponentChildren } from 'preact';

/** A card of the trading page, named by its heading (`titleId` links the two). */
export function Panel({ class: name, titleId, title, children }: { class: string; titleId: string; title: ComponentChildren; children: ComponentChildren }) {
  return (
    <section class={`panel ${name}`} aria-labelledby={titleId}>
      <h2 class="panel-title" id={titleId}>
        {title}
      </h2>
      {children}
    </section>
  );
}
