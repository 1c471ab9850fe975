// Nothing but the framework plugin: citemark needs no Vite configuration.
import { svelte } from "@sveltejs/vite-plugin-svelte";

export default { plugins: [svelte()] };
