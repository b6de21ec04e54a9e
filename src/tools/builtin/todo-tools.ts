import { z } from "zod";
import { FunctionTool } from "../function-tool.js";
import type { Tool } from "../tool.js";
import type { ToolContext } from "../tool-context.js";

/** The session-state key holding the main agent's todo list. */
export const TODOS_STATE_KEY = "todos";

/**
 * Where this agent's list lives: `todos` for the agent the user talks to; a
 * sub-agent run by a tool (its branch has an `@call` part) keeps its own list
 * for the invocation, so it never overwrites its caller's plan.
 */
function todosKey(context: ToolContext): string {
  const branch = context.invocationContext.branch;
  return branch?.includes("@") ? `temp:todos@${branch}` : TODOS_STATE_KEY;
}

/** One item of the agent's plan. */
export interface Todo {
  content: string;
  status: "pending" | "in_progress" | "completed";
}

const todoSchema = z.object({
  content: z.string().min(1).describe("What to do, in one line."),
  status: z.enum(["pending", "in_progress", "completed"]),
});

/**
 * `write_todos(todos)`: replaces the plan, kept in session state under
 * `todos`. Items are checked (content and a status of pending, in_progress or
 * completed); a bad list is refused with what to fix and the old one kept.
 */
export function createWriteTodosTool(): Tool {
  return new FunctionTool({
    name: "write_todos",
    description:
      "Replaces your todo list for multi-step work. Send the whole list each time; each item has content and a status (pending, in_progress, completed). Keep one item in_progress.",
    parameters: z.object({ todos: z.array(todoSchema) }),
    execute: ({ todos }, context) => {
      context.state.set(todosKey(context), todos);
      const counts = { pending: 0, in_progress: 0, completed: 0 };
      for (const todo of todos) counts[todo.status]++;
      return { status: "success", message: `Saved ${todos.length} todos.`, ...counts };
    },
  });
}

/** `read_todos()`: the current plan. */
export function createReadTodosTool(): Tool {
  return new FunctionTool({
    name: "read_todos",
    description: "Returns your current todo list.",
    execute: (_args, context) => ({ status: "success", todos: context.state.get<Todo[]>(todosKey(context)) ?? [] }),
  });
}

/** Both todo tools. */
export function createTodoTools(): Tool[] {
  return [createWriteTodosTool(), createReadTodosTool()];
}
