import { Placeholder } from '../shell/Placeholder';

export default function LeadsScreen() {
  return <Placeholder title="shell.screen.leads" work="shell.placeholder.leads" />;
}
