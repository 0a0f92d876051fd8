import { createTheme } from '@mantine/core';

export const theme = createTheme({
  // A user who asks the system for less motion gets Mantine's transitions and animations off.
  respectReducedMotion: true,
  primaryColor: 'blue',
  defaultRadius: 'sm',
});
