import { Placeholder } from '../shell/Placeholder';

export default function RulesScreen() {
  return <Placeholder title="shell.screen.rules" work="shell.placeholder.rules" />;
}
