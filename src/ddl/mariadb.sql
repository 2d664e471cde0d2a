-- Tables of the exactly-once engine, for MariaDB (InnoDB). Apply once per database:
--   mariadb -h HOST -u USER DATABASE < src/ddl/mariadb.sql

-- Processed message IDs: the primary key is what makes a second delivery of an ID a duplicate.
-- ACKNOWLEDGED_AT stays NULL until the purge confirms the message is gone from the broker.
CREATE TABLE EO_PROCESSED_MESSAGE (
    CONSUMER        VARCHAR(100) NOT NULL,
    MESSAGE_ID      VARCHAR(200) NOT NULL,
    PROCESSED_AT    DATETIME(6)  NOT NULL,
    JMS_MESSAGE_ID  VARCHAR(100),
    PAYLOAD_SHA256  VARCHAR(64),
    ACKNOWLEDGED_AT DATETIME(6),
    CONSTRAINT EO_PROCESSED_MESSAGE_PK PRIMARY KEY (CONSUMER, MESSAGE_ID)
) ENGINE = InnoDB;
-- the purge finds unconfirmed IDs (NULL) and IDs acknowledged before a time by this index
CREATE INDEX EO_PROCESSED_MESSAGE_ACK ON EO_PROCESSED_MESSAGE (ACKNOWLEDGED_AT);

-- Messages a consumer could not process (no usable ID, refused type or payload, failing every time),
-- kept whole with the reason for an operator to replay or discard. One row per broker message.
CREATE TABLE EO_PARKED_MESSAGE (
    ID              BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    CONSUMER        VARCHAR(100)  NOT NULL,
    MESSAGE_ID      VARCHAR(200),
    JMS_MESSAGE_ID  VARCHAR(100)  NOT NULL,
    QUEUE_NAME      VARCHAR(200),
    REASON          VARCHAR(30)   NOT NULL,
    DETAIL          VARCHAR(2000) NOT NULL,
    TEXT_BODY       LONGTEXT,
    BYTES_BODY      LONGBLOB,
    PROPERTIES      LONGTEXT NOT NULL,
    ATTEMPTS        INTEGER       NOT NULL,
    SENT_AT         DATETIME(6),
    PARKED_AT       DATETIME(6) NOT NULL,
    CONSTRAINT EO_PARKED_MESSAGE_DELIVERY UNIQUE (CONSUMER, JMS_MESSAGE_ID)
) ENGINE = InnoDB;
CREATE INDEX EO_PARKED_MESSAGE_PARKED ON EO_PARKED_MESSAGE (CONSUMER, PARKED_AT);

-- The ledger sample's table (not needed by the engine).
CREATE TABLE LEDGER_CREDIT (
    ID          BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    MESSAGE_ID  VARCHAR(200) NOT NULL,
    ACCOUNT     VARCHAR(100) NOT NULL,
    AMOUNT      BIGINT       NOT NULL,
    BOOKED_AT   DATETIME(6)  NOT NULL,
    INDEX LEDGER_CREDIT_ACCOUNT (ACCOUNT)
) ENGINE = InnoDB;
