import { Placeholder } from '../shell/Placeholder';

export default function CustomersScreen() {
  return <Placeholder title="shell.screen.customers" work="shell.placeholder.customers" />;
}
