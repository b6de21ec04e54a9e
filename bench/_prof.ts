import { toolsmith } from "./toolsmith-framework.js";
for (let i = 0; i < 1500; i++) await toolsmith.conversation(10);
