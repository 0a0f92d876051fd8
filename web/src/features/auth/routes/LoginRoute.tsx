import { Alert, Center, Paper, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useLocation, useNavigate } from 'react-router-dom';
import { useAppSelector } from '@/app/hooks';
import { redirectTargetFrom } from '@/lib/session/redirect';
import { selectSessionEndedReason } from '@/lib/session/sessionSlice';
import { LoginForm } from '../components/LoginForm';

/** /login (public): after signing in, back to the page the visitor asked for (default /). */
export function LoginRoute() {
  useDocumentTitle('Login · IR Portal');
  const location = useLocation();
  const navigate = useNavigate();
  const endedReason = useAppSelector(selectSessionEndedReason);

  return (
    <Center mih="80dvh">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={380}>
        <Title order={2} mb={4}>
          IR Portal
        </Title>
        <Text c="dimmed" size="sm" mb="lg">
          Sign in to continue
        </Text>
        {endedReason && (
          <Alert color="yellow" mb="md" role="status">
            {endedReason}
          </Alert>
        )}
        <LoginForm onSuccess={() => navigate(redirectTargetFrom(location.state), { replace: true })} />
      </Paper>
    </Center>
  );
}
