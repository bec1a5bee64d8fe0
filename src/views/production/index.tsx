import { Placeholder } from '../shell/Placeholder';

export default function ProductionScreen() {
  return <Placeholder title="shell.screen.production" work="shell.placeholder.production" />;
}
