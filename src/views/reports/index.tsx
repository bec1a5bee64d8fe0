import { Placeholder } from '../shell/Placeholder';

export default function ReportsScreen() {
  return <Placeholder title="shell.screen.reports" work="shell.placeholder.reports" />;
}
