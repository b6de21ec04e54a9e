import { isInsideAgentTool } from "../../agents/branch.js";
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
  return isInsideAgentTool(branch) ? `temp:todos@${branch}` : TODOS_STATE_KEY;
}

/** One item of the agent's plan. */
export interface Todo {
  content: string;
  status: "pending" | "in_progress" | "completed";
}

const TODOS_PARAMETERS = {
  type: "object",
  properties: {
    todos: {
      type: "array",
      description: "List of todo items",
      items: {
        type: "object",
        properties: {
          content: { type: "string", minLength: 1, description: "Description of the todo item" },
          status: { type: "string", enum: ["pending", "in_progress", "completed"] },
        },
        required: ["content", "status"],
        additionalProperties: false,
      },
    },
  },
  required: ["todos"],
} as const;

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
    parameters: TODOS_PARAMETERS,
    execute: (args, context) => {
      const todos = args.todos as Todo[];
      context.state.set(todosKey(context), todos);
      return { status: "success", count: todos.length };
    },
  });
}

/** `read_todos()`: the current plan. */
export function createReadTodosTool(): Tool {
  return new FunctionTool({
    name: "read_todos",
    description: "Returns your current todo list.",
    execute: (_args, context) => ({ todos: context.state.get<Todo[]>(todosKey(context)) ?? [] }),
  });
}

/** Both todo tools. */
export function createTodoTools(): Tool[] {
  return [createWriteTodosTool(), createReadTodosTool()];
}
