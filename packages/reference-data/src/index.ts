export { LANDING_SUBURBS, type Region, type Suburb } from './landing-suburbs';
