-- Tables of the exactly-once engine, for MariaDB (InnoDB). Apply once per database:
--   mariadb -h HOST -u USER DATABASE < src/ddl/mariadb.sql

-- Processed message IDs: the primary key is what makes a second delivery of an ID a duplicate.
-- Consumer names and IDs compare byte for byte (utf8mb4_nopad_bin: no case or accent folding, and
-- trailing blanks count): with the default utf8mb4_general_ci, 'Order-1' and 'order-1' would be one
-- key and the second message would be dropped as a duplicate. An ID holds up to 200 characters, and one
-- more for the escape the engine appends to an ID that ends in a blank.
-- ACKNOWLEDGED_AT stays NULL until the purge confirms the message is gone from the broker: BROKER, which
-- names the broker that delivered it, tells which server's purge can confirm that.
CREATE TABLE EO_PROCESSED_MESSAGE (
    CONSUMER        VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    MESSAGE_ID      VARCHAR(201) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    PROCESSED_AT    DATETIME(6)  NOT NULL,
    JMS_MESSAGE_ID  VARCHAR(100),
    PAYLOAD_SHA256  VARCHAR(64),
    BROKER          VARCHAR(100),
    ACKNOWLEDGED_AT DATETIME(6),
    CONSTRAINT EO_PROCESSED_MESSAGE_PK PRIMARY KEY (CONSUMER, MESSAGE_ID)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
-- The purge reads its pages by this index: a consumer's unconfirmed IDs (NULL) in ID order, and its IDs
-- acknowledged before a time in the order they were confirmed, each page from where the last ended, so
-- a run reads the rows it works on and not the rest of the table.
CREATE INDEX EO_PROCESSED_MESSAGE_PURGE ON EO_PROCESSED_MESSAGE (CONSUMER, ACKNOWLEDGED_AT, MESSAGE_ID);

-- Messages a consumer could not process (no usable ID, refused type or payload, failing every time,
-- a reused ID), kept whole with the reason for an operator to replay or discard: the body of any JMS
-- type, the headers and the typed properties, each as bytes (text bodies in UTF-8, map and stream
-- bodies and the headers and properties as JSON). One row per broker message.
CREATE TABLE EO_PARKED_MESSAGE (
    ID              BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    CONSUMER        VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    MESSAGE_ID      VARCHAR(201) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin,
    JMS_MESSAGE_ID  VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin,
    QUEUE_NAME      VARCHAR(200),
    REASON          VARCHAR(30)   NOT NULL,
    DETAIL          VARCHAR(2000) NOT NULL,
    BODY_TYPE       VARCHAR(10)   NOT NULL,
    BODY            LONGBLOB,
    BODY_PREVIEW    VARCHAR(301)  NOT NULL,
    HEADERS         LONGBLOB NOT NULL,
    PROPERTIES      LONGBLOB NOT NULL,
    ATTEMPTS        INTEGER       NOT NULL,
    SENT_AT         DATETIME(6),
    PARKED_AT       DATETIME(6) NOT NULL,
    CONSTRAINT EO_PARKED_MESSAGE_DELIVERY UNIQUE (CONSUMER, JMS_MESSAGE_ID)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE INDEX EO_PARKED_MESSAGE_PARKED ON EO_PARKED_MESSAGE (CONSUMER, PARKED_AT);
-- the purge keeps the processed ID of a parked message, found by this index
CREATE INDEX EO_PARKED_MESSAGE_ID ON EO_PARKED_MESSAGE (CONSUMER, MESSAGE_ID);

-- The destination each consumer reads, recorded at its first delivery: a consumer's name scopes its
-- IDs, so a second destination for one name is refused, never merged. ACKNOWLEDGED_IDS is how many of
-- the consumer's processed IDs are acknowledged, kept by the purge in the transactions that confirm and
-- delete them, so that no run counts them (NULL until the purge's first run counts them once).
CREATE TABLE EO_CONSUMER (
    CONSUMER         VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL PRIMARY KEY,
    DESTINATION_TYPE VARCHAR(10)  NOT NULL,
    DESTINATION      VARCHAR(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    REGISTERED_AT    DATETIME(6) NOT NULL,
    ACKNOWLEDGED_IDS BIGINT
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Deliveries a crash of their server interrupted, or a failure of their processing: a message in flight
-- when its server went down counts one crash, read from the server's crash journal at its next start, and
-- is parked as CRASHES_THE_SERVER once its crashes reach exactlyonce.crash-guard.crashes-before-parking. A
-- failed delivery counts one failure, so that a message is parked as KEEPS_FAILING after
-- exactlyonce.park-after-deliveries even where the broker's count starts again (redistribution to another
-- node, failover, a broker restart). A row goes when its message is processed, dropped or parked, or
-- once it is older than the dedup window.
CREATE TABLE EO_INTERRUPTED_DELIVERY (
    CONSUMER            VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    MESSAGE_ID          VARCHAR(201) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    CRASHES             INT NOT NULL,
    FAILURES            INT NOT NULL,
    LAST_INTERRUPTED_AT DATETIME(6) NOT NULL,
    CONSTRAINT EO_INTERRUPTED_DELIVERY_PK PRIMARY KEY (CONSUMER, MESSAGE_ID)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- The outbox: messages a transaction sends (Outbox.send), written with its rows and sent by the relay
-- once it has committed, then deleted. Kept whole as a parked message is; a message whose send failed
-- stays, with the reason, and is sent again. MESSAGE_ID is the ID it carries, the same on every send.
CREATE TABLE EO_OUTBOX_MESSAGE (
    ID               BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    MESSAGE_ID       VARCHAR(36)   NOT NULL,
    DESTINATION_TYPE VARCHAR(10)   NOT NULL,
    DESTINATION      VARCHAR(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    BODY_TYPE        VARCHAR(10)   NOT NULL,
    BODY             LONGBLOB,
    BODY_PREVIEW     VARCHAR(301)  NOT NULL,
    HEADERS          LONGBLOB NOT NULL,
    PROPERTIES       LONGBLOB NOT NULL,
    WRITTEN_AT       DATETIME(6) NOT NULL,
    ATTEMPTS         INTEGER       NOT NULL,
    LAST_FAILURE     VARCHAR(2000),
    FAILED_AT        DATETIME(6),
    CONSTRAINT EO_OUTBOX_MESSAGE_ID UNIQUE (MESSAGE_ID)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
-- the relay reads a destination's messages in order by this index
CREATE INDEX EO_OUTBOX_MESSAGE_NEXT ON EO_OUTBOX_MESSAGE (DESTINATION_TYPE, DESTINATION, ID);

-- One lease per destination ('queue:Name'): the relay that holds it sends that destination's messages.
CREATE TABLE EO_OUTBOX_LEASE (
    DESTINATION VARCHAR(211) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL PRIMARY KEY,
    HOLDER      VARCHAR(36) NOT NULL,
    HELD_UNTIL  DATETIME(6) NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- The ledger sample's table (not needed by the engine).
CREATE TABLE LEDGER_CREDIT (
    ID          BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    MESSAGE_ID  VARCHAR(200) NOT NULL,
    ACCOUNT     VARCHAR(100) NOT NULL,
    AMOUNT      BIGINT       NOT NULL,
    BOOKED_AT   DATETIME(6)  NOT NULL,
    INDEX LEDGER_CREDIT_ACCOUNT (ACCOUNT)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
