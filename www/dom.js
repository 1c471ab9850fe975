/** A tiny element builder: `props` are assigned, children appended (strings as text, never HTML). */
export function el(tag, props, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}
