import { says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["Write a Python function to calculate the factorial of a number using recursion."],
  modelTurns: [
    says("```python\ndef factorial(n):\n    return 1 if n == 0 else n * factorial(n - 1)\n```", "Python Code Generator"),
    says("- Handle negative numbers.", "Python Code Reviewer"),
    says("```python\ndef factorial(n: int) -> int:\n    if n < 0:\n        raise ValueError(n)\n    return 1 if n == 0 else n * factorial(n - 1)\n```", "Refactoring AI"),
  ],
};
