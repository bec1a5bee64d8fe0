import { definePublicScreen } from '../../commands/screens';

definePublicScreen({ id: 'notFound', path: '404', title: 'errors.notFound.title', load: () => import('.').then((m) => ({ default: m.NotFound })) });
definePublicScreen({ id: 'unauthorised', path: '401', title: 'errors.unauthorised.title', load: () => import('.').then((m) => ({ default: m.Unauthorised })) });
