export { calendarActivities, type CalendarActivities } from './sync';
