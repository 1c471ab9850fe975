import { mount } from "svelte";
import "../../chat.css";
import App from "./App.svelte";

mount(App, { target: document.getElementById("app") });
