import type { ScreenTitle } from '../../commands/screens';
import { useLandingNames } from './useLandingNames';

export const title: ScreenTitle = { screen: 'leads', useTitle: (params) => useLandingNames(params.id) };
