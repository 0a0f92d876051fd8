export interface HealthCheck {
  name: string;
  check(): Promise<unknown>;
}
export const HEALTH_CHECKS = Symbol('HEALTH_CHECKS');

/** Who answers /health: the service, this process's instance id and the roles it runs. */
export interface HealthInfo {
  service: string;
  instance: string;
  roles: readonly string[];
}
export const HEALTH_INFO = Symbol('HEALTH_INFO');
