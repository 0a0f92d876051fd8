export interface HealthCheck {
  name: string;
  check(): Promise<unknown>;
}
export const HEALTH_CHECKS = Symbol('HEALTH_CHECKS');
