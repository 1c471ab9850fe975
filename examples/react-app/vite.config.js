// Nothing but the framework plugin: citemark needs no Vite configuration.
import react from "@vitejs/plugin-react";

export default { plugins: [react()] };
