import { Placeholder } from '../shell/Placeholder';

export default function UsersScreen() {
  return <Placeholder title="shell.screen.users" work="shell.placeholder.users" />;
}
