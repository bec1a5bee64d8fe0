import { Placeholder } from '../shell/Placeholder';

export default function ExportsScreen() {
  return <Placeholder title="shell.screen.exports" work="shell.placeholder.exports" />;
}
