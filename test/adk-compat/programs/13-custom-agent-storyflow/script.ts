import { says, type ProgramScript } from "../../harness/script.js";

export const script: ProgramScript = {
  userMessages: ["Generate a story about: a lonely robot finding a friend in a junkyard"],
  modelTurns: [
    says("A lonely robot found a friend in a junkyard.", "story writer"),
    says("Give the friend a name.", "story critic"),
    says("A lonely robot found Bolt, a friend, in a junkyard.", "story reviser"),
    says("Describe the junkyard.", "story critic"),
    says("In a rusty junkyard, a lonely robot found Bolt, a friend.", "story reviser"),
    says("Grammar is correct!", "grammar checker"),
    says("positive", "tone analyzer"),
  ],
};
