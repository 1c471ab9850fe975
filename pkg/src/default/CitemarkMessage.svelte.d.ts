import type { CitemarkParams } from "./svelte.js";

export interface CitemarkMessageProps extends CitemarkParams {
  /** The message element's class. Default `"citemark"`. */
  class?: string;
}

/**
 * A streamed assistant message (Svelte 5): `<CitemarkMessage markdown={text}
 * {sources} mode="icon" streaming={isStreaming} {onActivate} icon={CitationIcon} />`,
 * its engine the default entry unless `api` names another (for another,
 * import citemark/svelte/core/CitemarkMessage.svelte instead).
 * Svelte's `Component<CitemarkMessageProps>`, declared without importing Svelte's types.
 */
declare const CitemarkMessage: (internals: never, props: CitemarkMessageProps) => Record<string, never>;
export default CitemarkMessage;
