import { calls, says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ['{"country": "France"}', '{"country": "Canada"}', '{"country": "France"}', '{"country": "Japan"}'],
  modelTurns: [
    calls([{ name: "get_capital_city", args: { country: "France" } }]),
    says('{"capital": "Paris"}'),
    calls([{ name: "get_capital_city", args: { country: "Canada" } }]),
    says('{"capital": "Ottawa"}'),
    says('{"capital": "Paris", "population_estimate": "2.1 million"}'),
    says('{"capital": "Tokyo", "population_estimate": "14 million"}'),
  ],
};
