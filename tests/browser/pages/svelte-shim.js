// `import … from "svelte"` in the browser test pages, which use only the
// `citations` action of citemark/svelte (the streaming action, which mounts
// components, is tested in examples/svelte-app).
const absent = () => {
  throw new Error("svelte is not loaded in this test page");
};
export const mount = absent;
export const unmount = absent;
