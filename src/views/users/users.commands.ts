/** The accounts screen's commands and the palette's users, each a jump to its exports. */
import { api } from '../../api/client';
import type { User } from '../../api/auth/contract';
import { definePaletteSource } from '../../commands/palette/sources';

definePaletteSource({
  id: 'users',
  order: 50,
  requires: 'admin',
  query: { queryKey: ['users'], queryFn: () => api<User[]>('/users') },
  entries: (users) => users.map((u) => ({ key: String(u.id), label: u.name, hint: u.email, command: 'nav.exports', args: { userId: u.id } })),
});
