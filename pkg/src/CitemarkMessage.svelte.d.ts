import type { CitemarkParams } from "./svelte.js";

export interface CitemarkMessageProps extends CitemarkParams {
  /** The message element's class. Default `"citemark"`. */
  class?: string;
}

/**
 * A streamed assistant message (Svelte 5): `<CitemarkMessage markdown={text}
 * {sources} mode="icon" streaming={isStreaming} {onActivate} icon={CitationIcon} api={engine} />`,
 * `engine` being an entry's (`import { engine } from "citemark/lite/async"`).
 * Svelte's `Component<CitemarkMessageProps>`, declared without importing Svelte's types.
 */
declare const CitemarkMessage: (internals: never, props: CitemarkMessageProps) => Record<string, never>;
export default CitemarkMessage;
