import { Placeholder } from '../shell/Placeholder';

export default function TaboolaScreen() {
  return <Placeholder title="shell.screen.taboola" work="shell.placeholder.taboola" />;
}
